//! The fewest puzzles from which the compare report lets its Bayesian decision rule (a
//! probability of at least 0.95 decides) say "better" or "practically equivalent": the rule's
//! error rates measured at every count of puzzles the reports test over (1 to 10, 12, 15, 20,
//! 30, 40, 59), with per-puzzle differences drawn from a symmetric distribution, Normal(mean,
//! sd), sd in units of the ROPE's half-width (0.5, 1, 2, 4, 8), each comparison tested as the
//! report tests it (`bayesian_signed_rank`, prior 0.5, `SAMPLES` posterior samples):
//!
//! * mean 0: a "better" verdict in either direction is false (`false_better`);
//! * mean 2 ROPE (every puzzle's expected difference twice the ROPE, B better): a
//!   "practically equivalent" verdict is false (`false_equivalent`), and so is "A better"
//!   (`wrong_better`).
//!
//! `error` is the largest of the false rates of the row. The threshold (printed to stderr;
//! the compare report's `MIN_PUZZLES`, which a test of sudoku-lab computes again from the
//! file) is the smallest count, never below `FLOOR`, from which no count's largest error is
//! significantly above the rule's error with many puzzles: `plateau`, the largest error over
//! the counts from `PLATEAU_FROM` on, plus 1.645 standard errors of the difference of two
//! such rates (one-sided 5 %). Below it the rule errs more often than it does with many
//! puzzles; from it on, its error rates are those it has with many puzzles (which are not 5 %:
//! see the rows). Seeded, so the file is the same on every run:
//!
//!     cargo run --release -p lab-stats --example bayes_decision_threshold > results-bench/bayes-decision-threshold.csv

const REPS: usize = 2000;
const SAMPLES: usize = 5000;
/// The probability at which a region decides, as the compare report's.
const DECIDES: f64 = 0.95;
const COUNTS: [usize; 16] = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 12, 15, 20, 30, 40, 59];
const SDS: [f64; 5] = [0.5, 1.0, 2.0, 4.0, 8.0];
const MEANS: [f64; 2] = [0.0, 2.0];
/// The counts from which the rule's error is taken as its many-puzzle level.
const PLATEAU_FROM: usize = 20;
/// Never fewer puzzles than this, whatever the simulation says.
const FLOOR: usize = 5;

struct SplitMix(u64);

impl SplitMix {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    /// Uniform in (0, 1).
    fn uniform(&mut self) -> f64 {
        ((self.next() >> 11) as f64 + 0.5) / (1u64 << 53) as f64
    }
    /// Standard normal (Box-Muller).
    fn normal(&mut self) -> f64 {
        let (u, v) = (self.uniform(), self.uniform());
        (-2.0 * u.ln()).sqrt() * (2.0 * std::f64::consts::PI * v).cos()
    }
}

/// Counts of ("A better", "practically equivalent", "B better", undecided) over `REPS`.
fn simulate(rng: &mut SplitMix, puzzles: usize, mean: f64, sd: f64) -> [usize; 4] {
    let mut out = [0usize; 4];
    for rep in 0..REPS {
        let x = vec![0.0; puzzles];
        let y: Vec<f64> = (0..puzzles).map(|_| mean + sd * rng.normal()).collect();
        let p = lab_stats::bayesian_signed_rank(
            &x,
            &y,
            1.0,
            lab_stats::BAYES_PRIOR,
            SAMPLES,
            rep as u64 + 1,
        )
        .expect("valid input");
        // y - x > 0: B better is p_right.
        let k = if p.p_left >= DECIDES {
            0
        } else if p.p_rope >= DECIDES {
            1
        } else if p.p_right >= DECIDES {
            2
        } else {
            3
        };
        out[k] += 1;
    }
    out
}

fn main() {
    println!("puzzles,mean_over_rope,sd_over_rope,replications,posterior_samples,decides_at,a_better,practically_equivalent,b_better,undecided,false_better,false_equivalent,wrong_better,error");
    let mut rng = SplitMix(20_261_129);
    let mut worst = vec![0.0f64; COUNTS.len()];
    for (i, &puzzles) in COUNTS.iter().enumerate() {
        for mean in MEANS {
            for sd in SDS {
                let c = simulate(&mut rng, puzzles, mean, sd);
                let f = |k: usize| k as f64 / REPS as f64;
                let (false_better, false_equivalent, wrong_better) = if mean == 0.0 {
                    (f(c[0] + c[2]), 0.0, 0.0)
                } else {
                    (0.0, f(c[1]), f(c[0]))
                };
                let error = false_better.max(false_equivalent).max(wrong_better);
                worst[i] = worst[i].max(error);
                println!(
                    "{puzzles},{mean},{sd},{REPS},{SAMPLES},{DECIDES},{:.4},{:.4},{:.4},{:.4},{false_better:.4},{false_equivalent:.4},{wrong_better:.4},{error:.4}",
                    f(c[0]),
                    f(c[1]),
                    f(c[2]),
                    f(c[3])
                );
            }
        }
    }
    // The many-puzzle level and the smallest count from which no count is above it.
    let plateau = (COUNTS.iter().zip(&worst))
        .filter(|(&c, _)| c >= PLATEAU_FROM)
        .fold(0.0f64, |m, (_, &e)| m.max(e));
    let tolerance = 1.645 * (2.0 * plateau * (1.0 - plateau) / REPS as f64).sqrt();
    let mut threshold = COUNTS[COUNTS.len() - 1];
    for i in (0..COUNTS.len()).rev() {
        if worst[i] > plateau + tolerance {
            break;
        }
        threshold = COUNTS[i];
    }
    eprintln!(
        "threshold: {} puzzles (largest error from {PLATEAU_FROM} puzzles on {plateau:.4}, tolerance {tolerance:.4}, floor {FLOOR})",
        threshold.max(FLOOR)
    );
}

//! The error rates of the compare report's Bayesian decision rule (a probability of at least
//! 0.95 decides) when the per-puzzle differences centre on zero but spread: for each number of
//! puzzles and spread (the standard deviation of the differences in units of the ROPE's
//! half-width), `REPS` simulated comparisons with differences drawn from Normal(0, sd), each
//! tested as the report tests it (`bayesian_signed_rank`, prior 0.5, `SAMPLES` posterior
//! samples). A "better" verdict in either direction is false: the differences have mean 0.
//! Seeded, so the file is the same on every run:
//!
//!     cargo run --release -p lab-stats --example bayes_decision_rule > results-bench/bayes-decision-rule.csv

const REPS: usize = 400;
const SAMPLES: usize = 5000;
/// The probability at which a region decides, as the compare report's.
const DECIDES: f64 = 0.95;

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

fn main() -> Result<(), lab_stats::StatsError> {
    println!("puzzles,sd_over_rope,replications,posterior_samples,decides_at,false_better,practically_equivalent,undecided");
    let mut rng = SplitMix(20_261_127);
    for puzzles in [9usize, 59] {
        for sd in [0.5, 1.0, 2.0, 4.0, 8.0] {
            let (mut better, mut equivalent, mut undecided) = (0, 0, 0);
            for rep in 0..REPS {
                let x = vec![0.0; puzzles];
                let y: Vec<f64> = (0..puzzles).map(|_| sd * rng.normal()).collect();
                let p = lab_stats::bayesian_signed_rank(
                    &x,
                    &y,
                    1.0,
                    lab_stats::BAYES_PRIOR,
                    SAMPLES,
                    rep as u64 + 1,
                )?;
                if p.p_left >= DECIDES || p.p_right >= DECIDES {
                    better += 1;
                } else if p.p_rope >= DECIDES {
                    equivalent += 1;
                } else {
                    undecided += 1;
                }
            }
            let rate = |k: usize| format!("{:.4}", k as f64 / REPS as f64);
            println!(
                "{puzzles},{sd},{REPS},{SAMPLES},{DECIDES},{},{},{}",
                rate(better),
                rate(equivalent),
                rate(undecided)
            );
        }
    }
    Ok(())
}

//! Whole runs pinned to the outcomes of revision 1ee7bd4 (before the kernels were reworked for
//! speed): for several readings, puzzles of orders 4, 6, 9 and 16 and many seeds, a digest of
//! every run's outcome (cells, fitness, generations, evaluations, restarts, termination,
//! counters) and of the generator's next output. A change of any draw or decision changes it.

mod common;

use common::blanked;
use rand::RngCore;
use ret_ga::*;
use sudoku_core::*;

/// FNV-1a over the text of the outcomes.
fn digest(text: &str) -> u64 {
    text.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

fn configs() -> Vec<RetGaConfig> {
    let d = RetGaConfig::default;
    vec![
        d(),
        RetGaConfig {
            repetition_set: RepetitionSet::GivensOfUnit,
            repetition_scope: RepetitionScope::All,
            pairing: Pairing::Random,
            ..d()
        },
        RetGaConfig {
            elite_order: EliteOrder::BestFirst,
            elitism: Elitism::Best,
            crossover_rows: CrossoverRows::UniformRandom,
            reset_rule: ResetRule::FixedPeriod,
            reset_point: Some(7),
            ..d()
        },
    ]
}

fn outcomes(puzzles: &[Puzzle], generations: u64, seeds: u64) -> String {
    let mut text = String::new();
    for p in puzzles {
        for cfg in configs() {
            let ga = RetGa::new(cfg).unwrap();
            for seed in 0..seeds {
                let mut rng = rng_from_seed(seed);
                let out = ga.solve(
                    p,
                    &Budget::generations(generations),
                    &mut rng,
                    &mut NoObserver,
                );
                text.push_str(&format!("{} {seed} {out:?} {}\n", p.id, rng.next_u64()));
            }
        }
    }
    text
}

#[test]
fn runs_on_9x9_bank_puzzles_keep_their_outcomes() {
    let puzzles: Vec<Puzzle> = ["mk_1star", "mk_superdifficult", "mk_easy"]
        .iter()
        .map(|id| bank_puzzle(id).unwrap().clone())
        .collect();
    let text = outcomes(&puzzles, 40, 6);
    assert_eq!(digest(&text), 8275087492005566108, "{text}");
}

#[test]
fn runs_on_orders_4_6_and_16_keep_their_outcomes() {
    let puzzles = [blanked(2, 2, 1), blanked(2, 3, 2), blanked(4, 4, 3)];
    let text = outcomes(&puzzles, 15, 4);
    assert!(text.contains("solved: true") && text.contains("solved: false"));
    assert_eq!(digest(&text), 14568659665133421230, "{text}");
}

//! Quick statistics and timing: `cargo run --release -p mk-ga --example mk_stats -- [runs] [puzzle ids...]`.
//!
//! For each puzzle: solved count, mean / median / min / max generations over the solved runs,
//! restarts, and the wall time per generation (release build).

use mk_ga::{MkGa, MkGaConfig, DEFAULT_MAX_GENERATIONS};
use std::time::Instant;
use sudoku_core::{bank_puzzle, rng_from_seed, run_seed, Budget, NoObserver, Solver};

fn main() {
    let mut args = std::env::args().skip(1);
    let runs: u64 = args.next().and_then(|s| s.parse().ok()).unwrap_or(20);
    let mut ids: Vec<String> = args.collect();
    if ids.is_empty() {
        ids = vec!["mk_easy".into(), "mk_1star".into()];
    }
    let solver = MkGa::new(config_from_env()).expect("valid config");
    let budget = Budget::generations(DEFAULT_MAX_GENERATIONS);
    println!(
        "puzzle\truns\tsolved\tmean_gen\tmedian_gen\tmin_gen\tmax_gen\tmean_restarts\tns_per_gen"
    );
    for id in &ids {
        let puzzle = bank_puzzle(id).expect("bank puzzle");
        let mut gens = Vec::new();
        let (mut total_gens, mut restarts) = (0u64, 0u64);
        let start = Instant::now();
        for run in 0..runs {
            let mut rng = rng_from_seed(run_seed(1, "mk-ga-stats", id, run));
            let out = solver.solve(puzzle, &budget, &mut rng, &mut NoObserver);
            total_gens += out.generations;
            restarts += out.restarts;
            if out.solved {
                gens.push(out.generations);
            }
        }
        let elapsed = start.elapsed();
        gens.sort_unstable();
        let solved = gens.len();
        let mean = gens.iter().sum::<u64>() as f64 / solved.max(1) as f64;
        let median = if solved == 0 { 0 } else { gens[solved / 2] };
        println!(
            "{id}\t{runs}\t{solved}\t{mean:.1}\t{median}\t{}\t{}\t{:.2}\t{:.0}",
            gens.first().copied().unwrap_or(0),
            gens.last().copied().unwrap_or(0),
            restarts as f64 / runs as f64,
            elapsed.as_nanos() as f64 / total_gens.max(1) as f64,
        );
    }
}

/// Variants for sensitivity checks: MK_AGEING=0, MK_RESTART=never|fixed:K|stag:K,
/// MK_CROSSOVER=onepoint, MK_PM=p, MK_RETRIES=k, MK_POP=n.
fn config_from_env() -> MkGaConfig {
    let mut c = MkGaConfig::default();
    let var = |k: &str| std::env::var(k).ok();
    if var("MK_AGEING").as_deref() == Some("0") {
        c.ageing = false;
    }
    if let Some(r) = var("MK_RESTART") {
        c.restart = match r.split_once(':') {
            Some(("fixed", k)) => mk_ga::RestartRule::FixedPeriod(k.parse().expect("K")),
            Some(("stag", k)) => mk_ga::RestartRule::Stagnation(k.parse().expect("K")),
            _ => mk_ga::RestartRule::Never,
        };
    }
    if var("MK_CROSSOVER").as_deref() == Some("onepoint") {
        c.crossover = mk_ga::CrossoverKind::OnePointBoxes;
    }
    if let Some(p) = var("MK_PM") {
        c.mutation_probability = p.parse().expect("probability");
    }
    if let Some(k) = var("MK_RETRIES") {
        c.mutation_retries = k.parse().expect("retries");
    }
    if let Some(k) = var("MK_POP") {
        c.population = k.parse().expect("population");
    }
    eprintln!("{c:?}");
    c
}

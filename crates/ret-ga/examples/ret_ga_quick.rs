//! Quick look at Ret-GA runs: `cargo run --release -p ret-ga --example ret_ga_quick -- [bank id] [runs]`;
//! options by environment: V (givens, fixed, never, random, asc, bestfirst), PM (mutation
//! probability), MAXG.
use ret_ga::*;
use sudoku_core::*;
fn main() {
    let id = std::env::args().nth(1).unwrap_or("mk_1star".into());
    let runs: u64 = std::env::args()
        .nth(2)
        .map(|s| s.parse().unwrap())
        .unwrap_or(20);
    let p = bank_puzzle(&id).unwrap();
    let mut cfg = RetGaConfig::default();
    let v = std::env::var("V").unwrap_or_default();
    if v.contains("givens") {
        cfg.repetition_set = RepetitionSet::GivensOfUnit;
    }
    if v.contains("fixed") {
        cfg.reset_rule = ResetRule::FixedPeriod;
    }
    if v.contains("never") {
        cfg.reset_rule = ResetRule::Never;
    }
    if v.contains("random") {
        cfg.pairing = Pairing::Random;
    }
    if v.contains("bestfirst") {
        cfg.elite_order = EliteOrder::BestFirst;
    }
    if v.contains("asc") {
        cfg.elite_order = EliteOrder::AscendingLiteral;
    }
    if let Ok(m) = std::env::var("PM") {
        cfg.mutation_probability = m.parse().unwrap();
    }
    let maxg: u64 = std::env::var("MAXG")
        .map(|s| s.parse().unwrap())
        .unwrap_or(50_000);
    let ga = RetGa::new(cfg).unwrap();
    let t = std::time::Instant::now();
    let mut gens = vec![];
    let mut total_gens = 0;
    for r in 0..runs {
        let mut rng = rng_from_seed(r);
        let o = ga.solve(p, &Budget::generations(maxg), &mut rng, &mut NoObserver);
        total_gens += o.generations;
        if o.solved {
            assert!(o.grid.is_solved() && o.grid.keeps_givens_of(&p.grid));
            gens.push(o.generations);
        }
    }
    let el = t.elapsed().as_secs_f64();
    let mean = gens.iter().sum::<u64>() as f64 / gens.len().max(1) as f64;
    println!(
        "{id}: solved {}/{runs}, mean gens {mean:.1}, {:.1} us/gen, total {el:.2}s",
        gens.len(),
        el * 1e6 / total_gens as f64
    );
}

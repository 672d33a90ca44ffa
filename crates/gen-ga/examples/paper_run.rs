//! One run at the paper's size (population 1000, 2000 generations), timed:
//! `cargo run --release -p gen-ga --example paper_run -- [seed] [none|clearing|bucketing]`.
use gen_ga::*;
use sudoku_core::*;
fn main() {
    let seed: u64 = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(1);
    let diversity = match std::env::args().nth(2).as_deref() {
        Some("clearing") => Diversity::Clearing { period: 100 },
        Some("bucketing") => Diversity::Bucketing { buckets: 0 },
        _ => Diversity::None,
    };
    let p = first_row_puzzle();
    let ga = GenGa::new(GenGaConfig {
        diversity,
        ..Default::default()
    })
    .unwrap();
    let t = std::time::Instant::now();
    let out = ga.solve(
        &p,
        &Budget::generations(2000),
        &mut rng_from_seed(seed),
        &mut NoObserver,
    );
    println!(
        "{diversity:?} seed {seed}: {:?} in {:.2} s",
        out.counters,
        t.elapsed().as_secs_f64()
    );
}

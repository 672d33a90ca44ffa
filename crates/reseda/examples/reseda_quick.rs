//! Success and mean rounds of single resolutions (no partial restart) on a bank puzzle:
//! `cargo run --release -p reseda --example reseda_quick -- <puzzle> <runs> <alpha> <strategy> [3|9|27]`.
use reseda::*;
use sudoku_core::*;
fn main() {
    let a: Vec<String> = std::env::args().collect();
    let id = a.get(1).map_or("reseda_easy", |s| s.as_str());
    let runs: u64 = a.get(2).and_then(|s| s.parse().ok()).unwrap_or(100);
    let alpha: f64 = a.get(3).and_then(|s| s.parse().ok()).unwrap_or(0.7);
    let strategy = match a.get(4).map(|s| s.as_str()) {
        Some("permutations") => Strategy::Permutations,
        Some("precomputation") => Strategy::Precomputation,
        _ => Strategy::Both,
    };
    let p = bank_puzzle(id).unwrap();
    let zones = match a.get(5).map(|s| s.as_str()) {
        Some("3") => Zones::Diagonal3,
        Some("9") => Zones::Blocks9,
        Some("27") => Zones::All27,
        _ => Zones::None,
    };
    let r = Reseda::new(ResedaConfig {
        alpha,
        strategy,
        zones,
        ..Default::default()
    })
    .unwrap();
    let t = std::time::Instant::now();
    let (mut ok, mut rounds) = (0, 0);
    for run in 0..runs {
        let o = r.solve(
            p,
            &Budget::generations(100_000),
            &mut rng_from_seed(run),
            &mut NoObserver,
        );
        if o.solved {
            assert!(o.grid.is_solved() && o.grid.keeps_givens_of(&p.grid));
            ok += 1;
            rounds += o.generations;
        }
    }
    println!(
        "{id} alpha {alpha} {strategy:?}: {ok}/{runs} solved, mean rounds {:.1}, {:.2} ms/run",
        rounds as f64 / ok.max(1) as f64,
        t.elapsed().as_secs_f64() * 1e3 / runs as f64
    );
}

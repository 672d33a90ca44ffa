//! `cargo run --release -p cso --example cso_quick -- <bank id> <runs> <max cycles>`
use cso::*;
use sudoku_core::*;
fn main() {
    let a: Vec<String> = std::env::args().collect();
    let id = a.get(1).map_or("mk_easy", |s| s.as_str());
    let runs: u64 = a.get(2).and_then(|s| s.parse().ok()).unwrap_or(10);
    let max: u64 = a.get(3).and_then(|s| s.parse().ok()).unwrap_or(1000);
    let p = bank_puzzle(id).unwrap();
    let cdc: f64 = std::env::var("CDC")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(0.8);
    let cso = Cso::new(CsoConfig {
        cdc,
        ..Default::default()
    })
    .unwrap();
    let t = std::time::Instant::now();
    let (mut ok, mut cyc, mut total) = (0, 0, 0);
    for r in 0..runs {
        let o = cso.solve(
            p,
            &Budget::generations(max),
            &mut rng_from_seed(r),
            &mut NoObserver,
        );
        total += o.generations;
        if o.solved {
            assert!(o.grid.is_solved() && o.grid.keeps_givens_of(&p.grid));
            ok += 1;
            cyc += o.generations;
        }
    }
    let s = t.elapsed().as_secs_f64();
    let o = cso.solve(
        p,
        &Budget::generations(max),
        &mut rng_from_seed(99),
        &mut NoObserver,
    );
    println!(
        "best fitness of one run: {} (penalty {:.0})",
        o.best_fitness,
        1.0 / o.best_fitness - 1.0
    );
    println!(
        "{id}: {ok}/{runs} solved, mean cycles {:.1}, {:.1} us/cycle",
        cyc as f64 / ok.max(1) as f64,
        s * 1e6 / total.max(1) as f64
    );
}

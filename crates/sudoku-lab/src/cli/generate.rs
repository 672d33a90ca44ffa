//! `sudoku-lab generate`: puzzles with a unique solution from solved boards.

use anyhow::{bail, Context, Result};
use std::path::Path;
use std::process::ExitCode;
use sudoku_core::parse::parse_puzzles;
use sudoku_core::{rng_from_seed, Budget, NoObserver};

/// Where `generate` takes its solved grids from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum GridSource {
    /// Boards found by one gen-ga run (Benbassat's generator; 9x9 only).
    GenGa,
    /// Random full grids from the exact solver (any order).
    Random,
}

/// Removal orders tried per puzzle before `generate` gives up on the target.
const REDUCE_ATTEMPTS: u64 = 100;

pub struct GenerateArgs<'a> {
    pub seed: u64,
    pub count: usize,
    pub givens: usize,
    pub size: usize,
    pub grids: Option<GridSource>,
    pub boards: Option<&'a Path>,
    pub out: Option<&'a Path>,
}

pub fn generate(a: &GenerateArgs) -> Result<ExitCode> {
    use sudoku_core::exact::{guesses, random_solution, reduce_to_unique};
    use sudoku_core::{run_seed, Geometry, Grid};
    let (seed, count, givens) = (a.seed, a.count, a.givens);
    if count == 0 {
        bail!("--count must be at least 1");
    }
    let geom =
        Geometry::for_order(a.size).map_err(|e| anyhow::anyhow!("--size {}: {e}", a.size))?;
    if givens > geom.cells() {
        bail!("--givens must be at most {}", geom.cells());
    }
    enum Source<'p> {
        GenGa,
        Random,
        File(&'p Path),
    }
    let source = match (a.grids, a.boards) {
        (Some(_), Some(_)) => bail!("--grids and --boards exclude each other"),
        (None, Some(path)) => Source::File(path),
        (Some(GridSource::GenGa), None) => Source::GenGa,
        (Some(GridSource::Random), None) => Source::Random,
        (None, None) if a.size == 9 => Source::GenGa,
        (None, None) => Source::Random,
    };
    if matches!(source, Source::GenGa) && a.size != 9 {
        bail!(
            "--grids gen-ga makes 9x9 boards only; use --grids random for --size {}",
            a.size
        );
    }
    let solved: Vec<Grid> = match source {
        Source::File(path) => {
            let text = std::fs::read_to_string(path)
                .with_context(|| format!("cannot read {}", path.display()))?;
            let ps = parse_puzzles(&text, &path.display().to_string())?;
            if let Some(p) = ps.iter().find(|p| !p.grid.is_solved()) {
                bail!("{}: board {} is not a solved grid", path.display(), p.id);
            }
            if let Some(p) = ps.iter().find(|p| p.grid.geometry() != geom) {
                bail!(
                    "{}: board {} is not of order {} (set --size)",
                    path.display(),
                    p.id,
                    a.size
                );
            }
            ps.into_iter().map(|p| p.grid).take(count).collect()
        }
        Source::Random => (0..count)
            .map(|k| {
                let mut rng = rng_from_seed(run_seed(seed, "generate", "grid", k as u64));
                random_solution(geom, &mut rng)
            })
            .collect(),
        Source::GenGa => {
            let start = gen_ga::first_row_puzzle();
            let ga = gen_ga::GenGa::new(gen_ga::GenGaConfig::default())?;
            let mut rng = rng_from_seed(run_seed(seed, "generate", "gen-ga", 0));
            let (_, found) = ga.generate(
                &start,
                &Budget::generations(2000),
                &mut rng,
                &mut NoObserver,
            );
            found.into_iter().take(count).collect()
        }
    };
    if solved.len() < count {
        bail!(
            "only {} solved boards available, {count} asked",
            solved.len()
        );
    }
    let grids = match source {
        Source::Random => " --grids random".to_string(),
        Source::File(path) => format!(" --boards {}", path.display()),
        Source::GenGa => String::new(),
    };
    let mut text = format!(
        "# sudoku-lab generate --seed {seed} --count {count} --givens {givens} --size {}{grids}\n",
        a.size
    );
    println!(
        "{:<6} {:>6} {:>8} {:>8}",
        "puzzle", "givens", "guesses", "attempt"
    );
    for (k, board) in solved.iter().enumerate() {
        // Attempt 0 keeps the seeds of earlier versions; further removal orders are tried
        // only when the target was not reached.
        let mut reduced = None;
        for attempt in 0..REDUCE_ATTEMPTS {
            let stream = match attempt {
                0 => "reduce".to_string(),
                t => format!("reduce-{t}"),
            };
            let mut rng = rng_from_seed(run_seed(seed, "generate", &stream, k as u64));
            let p = reduce_to_unique(board, givens, &mut rng);
            if p.filled() <= givens {
                reduced = Some((p, attempt));
                break;
            }
        }
        let Some((p, attempt)) = reduced else {
            bail!(
                "puzzle {}: no removal order in {REDUCE_ATTEMPTS} reached {givens} givens with a unique solution; ask for more givens",
                k + 1
            );
        };
        let r = guesses(&p);
        println!("{:<6} {:>6} {:>8} {:>8}", k + 1, p.filled(), r, attempt);
        let body = if geom.n() > 9 {
            format!("{}\n", p.to_tokens().trim_end())
        } else {
            p.to_line()
        };
        text.push_str(&format!(
            "# puzzle {}: {} givens, {r} guesses, removal order {attempt}\n{body}\n",
            k + 1,
            p.filled(),
        ));
    }
    match a.out {
        Some(path) => crate::protocol::io::write_atomic(path, text.as_bytes())?,
        None => print!("{text}"),
    }
    Ok(ExitCode::SUCCESS)
}

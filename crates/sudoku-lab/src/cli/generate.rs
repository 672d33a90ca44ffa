//! `sudoku-lab generate`: puzzles with a unique solution from solved boards.

use anyhow::{bail, Context, Result};
use std::path::Path;
use std::process::ExitCode;
use sudoku_core::exact::{guesses, random_solution, reduce_to_unique};
use sudoku_core::parse::parse_puzzles;
use sudoku_core::{rng_from_seed, run_seed, Budget, Geometry, Grid, NoObserver};

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

/// The solved grids' origin once the flags are resolved: `--boards` names a file, else
/// `--grids`, else gen-ga for 9x9 and random grids for other orders.
enum Source<'p> {
    GenGa,
    Random,
    File(&'p Path),
}

/// `sudoku-lab generate`: check the flags, take `--count` solved grids, reduce each to a
/// puzzle with `--givens` givens and a unique solution, print a line per puzzle and write
/// the puzzles (to `--out`, else standard output).
pub fn generate(a: &GenerateArgs) -> Result<ExitCode> {
    let (count, givens) = (a.count, a.givens);
    if count == 0 {
        bail!("--count must be at least 1");
    }
    let geom =
        Geometry::for_order(a.size).map_err(|e| anyhow::anyhow!("--size {}: {e}", a.size))?;
    if givens > geom.cells() {
        bail!("--givens must be at most {}", geom.cells());
    }
    let source = grid_source(a)?;
    let solved = solved_grids(&source, a, geom)?;
    if solved.len() < count {
        bail!(
            "only {} solved boards available, {count} asked",
            solved.len()
        );
    }
    let mut text = header_line(a, &source);
    println!(
        "{:<6} {:>6} {:>8} {:>8}",
        "puzzle", "givens", "guesses", "attempt"
    );
    for (k, board) in solved.iter().enumerate() {
        let (p, attempt) = reduce_one(board, k, a.seed, givens)?;
        let r = guesses(&p);
        println!("{:<6} {:>6} {:>8} {:>8}", k + 1, p.filled(), r, attempt);
        text.push_str(&puzzle_text(k, &p, r, attempt));
    }
    match a.out {
        Some(path) => crate::protocol::io::write_output(path, text.as_bytes())?,
        None => print!("{text}"),
    }
    Ok(ExitCode::SUCCESS)
}

/// Resolve `--grids` and `--boards` into one source, refusing both at once and gen-ga boards
/// of an order other than 9.
fn grid_source<'p>(a: &GenerateArgs<'p>) -> Result<Source<'p>> {
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
    Ok(source)
}

/// At most `--count` solved grids from `source` (possibly fewer: a file or a gen-ga run may
/// hold fewer boards, which the caller reports).
fn solved_grids(source: &Source, a: &GenerateArgs, geom: Geometry) -> Result<Vec<Grid>> {
    let (seed, count) = (a.seed, a.count);
    Ok(match source {
        Source::File(path) => boards_from_file(path, geom, a.size, count)?,
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
    })
}

/// The first `count` boards of a `--boards` file, each checked to be a solved grid of
/// order `size` (`geom`).
fn boards_from_file(path: &Path, geom: Geometry, size: usize, count: usize) -> Result<Vec<Grid>> {
    let text =
        std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
    let ps = parse_puzzles(&text, &path.display().to_string())?;
    if let Some(p) = ps.iter().find(|p| !p.grid.is_solved()) {
        bail!("{}: board {} is not a solved grid", path.display(), p.id);
    }
    if let Some(p) = ps.iter().find(|p| p.grid.geometry() != geom) {
        bail!(
            "{}: board {} is not of order {} (set --size)",
            path.display(),
            p.id,
            size
        );
    }
    Ok(ps.into_iter().map(|p| p.grid).take(count).collect())
}

/// The puzzle of the `k`-th board (0-based) with at most `givens` givens and a unique
/// solution, and the removal order (attempt) that reached it. Attempt 0 keeps the seeds of
/// earlier versions; further removal orders are tried only when the target was not reached.
fn reduce_one(board: &Grid, k: usize, seed: u64, givens: usize) -> Result<(Grid, u64)> {
    for attempt in 0..REDUCE_ATTEMPTS {
        let stream = match attempt {
            0 => "reduce".to_string(),
            t => format!("reduce-{t}"),
        };
        let mut rng = rng_from_seed(run_seed(seed, "generate", &stream, k as u64));
        let p = reduce_to_unique(board, givens, &mut rng);
        if p.filled() <= givens {
            return Ok((p, attempt));
        }
    }
    bail!(
        "puzzle {}: no removal order in {REDUCE_ATTEMPTS} reached {givens} givens with a unique solution; ask for more givens",
        k + 1
    )
}

/// The first line of the output: the command that makes the same puzzles again.
fn header_line(a: &GenerateArgs, source: &Source) -> String {
    let grids = match source {
        Source::Random => " --grids random".to_string(),
        Source::File(path) => format!(" --boards {}", path.display()),
        Source::GenGa => String::new(),
    };
    format!(
        "# sudoku-lab generate --seed {} --count {} --givens {} --size {}{grids}\n",
        a.seed, a.count, a.givens, a.size
    )
}

/// The output lines of the `k`-th puzzle (0-based): a comment with its givens, the guesses of
/// the exact solver (`guesses`) and the removal order, then the puzzle as one line (orders up
/// to 9) or as rows of tokens (larger orders, whose symbols take more than one character).
fn puzzle_text(k: usize, p: &Grid, guesses: u64, attempt: u64) -> String {
    let body = if p.geometry().n() > 9 {
        format!("{}\n", p.to_tokens().trim_end())
    } else {
        p.to_line()
    };
    format!(
        "# puzzle {}: {} givens, {guesses} guesses, removal order {attempt}\n{body}\n",
        k + 1,
        p.filled(),
    )
}
